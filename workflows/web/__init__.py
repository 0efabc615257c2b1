"""The review page: FastAPI with server-rendered Jinja2 templates over ``workflows.review``."""
