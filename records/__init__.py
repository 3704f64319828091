"""Game records and the referee, above the rules they replay (docs/records.md): ``records.game``
writes, reads and replays a record; ``records.referee.check_record`` judges one to its first
deviation (or every one), with the bean annotations (``annotations``), an engine's claimed states
(``claims``) and the unknown cards (``unknown``) it checks, and its answer (``verdicts``)."""
