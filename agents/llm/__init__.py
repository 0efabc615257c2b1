"""The one model seam: a provider over LangChain chat models, answer parsing and the grounding check."""
