"""The core: what every kind shares and what names no kind.

``kinds`` (the registry and the kind contract), ``options`` (declared options), ``aggregate``
(totals from declared aggregations), ``results`` (:class:`Result`, the envelope), ``api``
(:func:`evaluate`), ``compare``, ``schema``, ``runner`` (jobs, cache, Dask), ``files``
(safe reading and atomic writing), ``errors`` and ``demo``.
"""
