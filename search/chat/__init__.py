"""`manage.py chat`: the interactive Dutch terminal client for specialists (situations, guideline questions)."""
