"""Effects: what the table service tells the outside world, at least once.

Platform notifications (issue 9): a settled hand (结算), an adjudicated penalty (逃跑处罚) and
an ended series become signed webhooks. ``body`` says what is sent, ``signing`` how it is
signed and checked, ``outbox`` keeps each delivery as a row (the record of a pending delivery,
never a Celery countdown), ``delivery`` posts one and records the result. The reactor that
writes the rows is ``workers.reactor``.
"""
