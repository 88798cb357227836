// `scorekeeper site` runs this with Node.js, if the machine has it: Python's modules compiled to
// bytecode by the Python that will run them (the Pyodide runtime copied into the site), so the
// phone does not compile them at every start. Nothing is downloaded: Pyodide comes from the
// installed flet-web package (argv[2]), the work folder (argv[3]) holds `src/GROUP/` (the .py
// files); every one is written to `pyc/GROUP/` as a .pyc whose source's hash is not checked
// again, naming its source as argv[4] says (GROUP -> the folder it has on the phone).
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, work, where] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + path.sep });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: work }, "/work");
py.globals.set("where", where);
py.runPython(`
import json, os, importlib.util
from importlib._bootstrap_external import _code_to_hash_pyc

prefix = json.loads(where)
count = 0
for root, dirs, files in os.walk("/work/src"):
    dirs.sort()
    for name in sorted(files):
        if not name.endswith(".py"):
            continue
        src = os.path.join(root, name)
        rel = os.path.relpath(src, "/work/src")
        with open(src, "rb") as f:
            data = f.read()
        group, _, inside = rel.partition("/")
        code = compile(data, prefix[group] + inside, "exec", dont_inherit=True, optimize=0)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), False)
        out = os.path.join("/work/pyc", rel[:-3] + ".pyc")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(bytes(pyc))
        count += 1
print(f"compiled {count} modules")
`);
