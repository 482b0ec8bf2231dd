"""The independent referee on hand-built logs and random legal games; game records and the audit."""
