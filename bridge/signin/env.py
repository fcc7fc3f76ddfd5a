"""The environment variables that name an account, its password, its PDS and the state directory.

Their own module, free of imports, so that the command line can name them in its options without
loading the sign-in code (``pdsmem --help`` starts at once).
"""

ENV_HANDLE = "ATP_AUTH_HANDLE"
ENV_HANDLES = (ENV_HANDLE, "ATP_AUTH_USERNAME")  # goat reads the second; either names the account
ENV_PASSWORD = "ATP_AUTH_PASSWORD"
ENV_PDS = "ATP_PDS_HOST"
ENV_STATE_DIR = "PDSMEM_STATE_DIR"
