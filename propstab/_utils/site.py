"""The documentation site's public address, for messages that send a reader to a page.

A warning or a report names a page of the site by its public URL, never by a path of the
source tree (a user who installed propstab with pip has no ``docs/`` folder).
"""

#: Where the documentation site is published.
SITE_URL = "https://propstab.readthedocs.io/en/latest/"


def page_url(page: str, anchor: str = "") -> str:
    """The public address of a page of the site, with an optional anchor.

    Parameters
    ----------
    page : str
        The page's name in the site, without suffix (``"varying_sizes"``).
    anchor : str, optional
        The id of a section of the page (``"small-m"``).

    Returns
    -------
    str

    Examples
    --------
    >>> page_url("inference_validation", "small-m")
    'https://propstab.readthedocs.io/en/latest/inference_validation.html#small-m'
    """
    return f"{SITE_URL}{page}.html" + (f"#{anchor}" if anchor else "")
