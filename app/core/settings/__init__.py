"""Settings groups, one ``BaseModel`` per environment prefix.

:mod:`app.core.config` assembles them into :class:`~app.core.config.Settings`.
"""
