"""The History screen: the stored matches page by page, import; one stored match."""
