"""The links whose ids an entry records (``<link>_ref``): who it is about, who clicked, who
rolled."""

RECORDED_LINKS = ("character", "user", "roller")
