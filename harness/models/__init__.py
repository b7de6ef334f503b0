"""Models: loading a profile's model (loaded), where traces run (backends), the work each forward
does (work) and the Hugging Face cache's files (resources)."""
