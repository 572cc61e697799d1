"""Front ends and workbenches on many games or files: simulate, report, viewer, language server."""
