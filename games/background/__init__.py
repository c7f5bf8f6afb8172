"""Background work, one job system for every app (ARCHITECTURE.md "One job system").

- ``jobs`` — a job is a function registered by name (``@jobs.job``) and scheduled by name
  (``jobs.enqueue``); ``settings.JOBS`` runs them on Celery, in a thread of this process, or not at all.
- ``dueturns`` — with Celery, the computer turns kept in Redis by due time and played in batches by
  self-resending chains.
- ``broker`` — sending a Celery task by name, the thread's producer kept between sends.

The tasks themselves live where Celery looks for them: games/tasks.py (and tournaments', replay's).
"""
