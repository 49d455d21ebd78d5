"""People in the loop: the annotation review app, its store, and blind rating forms.

``privbench review DIR`` serves a local web app (FastAPI on 127.0.0.1, a random token)
where annotators correct a built dataset's drafts; every save is kept in
``DIR/review.sqlite`` (:mod:`.store`). ``privbench review export`` turns accepted
annotations into a reviewed dataset. ``docs/review.md`` describes the app and its API.
"""
