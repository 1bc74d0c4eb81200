"""Sensitive values in traces: what they are (``kinds``), how they are found (``detect``, from Presidio's pattern
recognizers and ``detect-secrets``' detectors) and how they are replaced by stable tokens (``redactor``). The
safety findings they give are in ``aem_strands.trace.pii``."""
