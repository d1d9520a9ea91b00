"""The version of sacreBLEU whose API and numbers this facade reproduces: what
``sacrebleu.__version__`` says, and what the signatures print after ``version:``. mtcompute's
own version is :data:`mtcompute.__version__`."""

__all__ = ["__version__"]

__version__ = "2.6.0"
