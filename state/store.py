"""The store: one place that reads and writes a thread's records."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from state.db import Database
from state.models import Brief, Mention, SourceEntry
from state.tables.approval import DecisionRow, WarningDecisionRow
from state.tables.core import ArtifactRow, BlobRow, BriefRow, MentionRow, RunRow, SourceRow
from state.tables.llm import LlmRunRow

__all__ = ["Store", "sha256_text"]


def _insert(db: Database):  # type: ignore[no-untyped-def]
    """The dialect's INSERT with ON CONFLICT (SQLite and PostgreSQL)."""
    return pg_insert if db.dialect == "postgresql" else sqlite_insert


def sha256_text(text: str) -> str:
    """SHA-256 of a text's UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Store:
    """Thread-scoped records over one Database; every write is one transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # runs -----------------------------------------------------------------
    def start_run(self, thread: str, topic: str, day: str, mode: str) -> int:
        """Record the start of a graph invocation and return its id."""
        with self.db.session() as session:
            row = RunRow(thread=thread, topic=topic, day=day, started=datetime.now(UTC), mode=mode)
            session.add(row)
            session.flush()
            return row.id

    def finish_run(self, run_id: int, status: str, seconds: float, error: str | None = None) -> None:
        """Record how a run ended."""
        with self.db.session() as session:
            row = session.get(RunRow, run_id)
            if row is not None:
                row.status, row.seconds, row.error = status, seconds, error
                row.finished = datetime.now(UTC)

    def run_seconds(self, run_id: int) -> float:
        """Seconds since the run started (the brief's ``stats.seconds``)."""
        with self.db.session() as session:
            row = session.get(RunRow, run_id)
            if row is None:
                return 0.0
            started = row.started if row.started.tzinfo else row.started.replace(tzinfo=UTC)
            return (datetime.now(UTC) - started).total_seconds()

    def close_stale_runs(self, thread: str) -> int:
        """Close the thread's runs still marked running (call while holding its lease: their process is gone)."""
        with self.db.session() as session:
            done = session.execute(update(RunRow).where(RunRow.thread == thread, RunRow.status == "running")
                                   .values(status="killed", finished=datetime.now(UTC),
                                           error="the process ended before the run did (its lease was dead)"))
            return done.rowcount

    def threads_with_pending_runs(self) -> list[str]:
        """Threads whose last run stopped at the approval step (the checkpoint says whether still so)."""
        with self.db.session() as session:
            return sorted(set(session.scalars(select(RunRow.thread).where(RunRow.status == "pending"))))

    def runs(self, thread: str) -> list[RunRow]:
        """Every run of a thread, oldest first."""
        with self.db.session() as session:
            return list(session.scalars(select(RunRow).where(RunRow.thread == thread).order_by(RunRow.id)))

    def last_runs(self) -> dict[str, RunRow]:
        """The latest run of every thread."""
        with self.db.session() as session:
            latest: dict[str, RunRow] = {}
            for row in session.scalars(select(RunRow).order_by(RunRow.id)):
                latest[row.thread] = row
            return latest

    def record_llm_run(self, run_id: int, thread: str, record: dict) -> None:
        """Keep a run's model use: model, endpoint, prompt versions, calls, tokens, drops (replaced on resume)."""
        with self.db.session() as session:
            row = session.get(LlmRunRow, run_id) or LlmRunRow(run_id=run_id, thread=thread)
            row.model, row.endpoint = record["model"], record.get("endpoint")
            row.calls, row.tokens, row.dropped = record["calls"], record["tokens"], record["dropped"]
            row.prefix_share = record.get("prefix_share", 0.0)
            row.prompt_versions, row.notes = dict(record["prompt_versions"]), list(record.get("notes", []))
            session.add(row)

    def llm_runs(self, thread: str) -> list[dict]:
        """The model use of every run of a thread, oldest first."""
        with self.db.session() as session:
            rows = session.scalars(select(LlmRunRow).where(LlmRunRow.thread == thread).order_by(LlmRunRow.run_id))
            return [{"run_id": r.run_id, "model": r.model, "endpoint": r.endpoint, "calls": r.calls,
                     "tokens": r.tokens, "dropped": r.dropped, "prefix_share": r.prefix_share,
                     "prompt_versions": r.prompt_versions, "notes": r.notes} for r in rows]

    # blobs ----------------------------------------------------------------
    def _insert_ignore(self, session, table, rows: list[dict], keys: list[str]) -> None:  # type: ignore[no-untyped-def]
        if not rows:
            return
        session.execute(_insert(self.db)(table).values(rows).on_conflict_do_nothing(index_elements=keys))

    def _upsert(self, session, table, row: dict, keys: list[str]) -> None:  # type: ignore[no-untyped-def]
        statement = _insert(self.db)(table).values(row)
        session.execute(statement.on_conflict_do_update(
            index_elements=keys, set_={k: statement.excluded[k] for k in row if k not in keys}))

    def put_blobs(self, blobs: dict[str, str]) -> None:
        """Store document bodies by hash (existing ones are left as they are)."""
        with self.db.session() as session:
            rows = [{"sha256": sha, "text": text} for sha, text in blobs.items()]
            for chunk in range(0, len(rows), 200):
                self._insert_ignore(session, BlobRow.__table__, rows[chunk:chunk + 200], ["sha256"])

    def blob(self, sha256: str) -> str | None:
        """The text stored under ``sha256``."""
        with self.db.session() as session:
            row = session.get(BlobRow, sha256)
            return row.text if row else None

    # sources and mentions ---------------------------------------------------
    def save_scan(self, thread: str, sources: list[SourceEntry], mentions: list[Mention],
                  blobs: dict[str, str]) -> None:
        """Replace the thread's sources and mentions (a re-run never duplicates them)."""
        self.put_blobs(blobs)
        with self.db.session() as session:
            session.execute(delete(SourceRow).where(SourceRow.thread == thread))
            session.execute(delete(MentionRow).where(MentionRow.thread == thread))
            session.add_all(
                SourceRow(thread=thread, path=s.path, kind=s.kind, agent=s.agent, sha256=s.sha256,
                          encoding=s.encoding, time=s.time, time_from=s.time_from, bytes=s.bytes,
                          relevance=s.relevance, status=s.status, reason=s.reason,
                          entry=s.model_dump(mode="json"))
                for s in sources
            )
            session.add_all(
                MentionRow(thread=thread, source=m.source, kind=m.kind, value=m.value[:500],
                           record=m.model_dump(mode="json"))
                for m in mentions
            )

    def sources(self, thread: str) -> list[SourceEntry]:
        """The thread's sources in scan order."""
        with self.db.session() as session:
            rows = session.scalars(select(SourceRow).where(SourceRow.thread == thread).order_by(SourceRow.id))
            return [SourceEntry.model_validate(row.entry) for row in rows]

    def mentions(self, thread: str) -> list[Mention]:
        """The thread's mentions in extraction order."""
        with self.db.session() as session:
            rows = session.scalars(select(MentionRow).where(MentionRow.thread == thread).order_by(MentionRow.id))
            return [Mention.model_validate(row.record) for row in rows]

    # briefs -----------------------------------------------------------------
    def save_brief(self, thread: str, run_id: int | None, brief: Brief, markdown: str) -> str:
        """Store the thread's working draft (replacing the previous one) and return its SHA-256."""
        digest = sha256_text(markdown)
        with self.db.session() as session:
            # One statement: a new thread starts at revision 0; an existing one keeps its revision.
            statement = _insert(self.db)(BriefRow.__table__).values(
                thread=thread, run_id=run_id, brief=brief.model_dump(mode="json"), markdown=markdown,
                sha256=digest, revision=0)
            session.execute(statement.on_conflict_do_update(index_elements=["thread"], set_={
                name: statement.excluded[name] for name in ("run_id", "brief", "markdown", "sha256")}))
        return digest

    def present(self, thread: str) -> int:
        """Mark the working draft as presented for approval; a changed text is a new revision."""
        with self.db.session() as session:
            row = session.get(BriefRow, thread)
            if row is None:
                return 0
            if row.presented_sha256 != row.sha256:
                row.revision, row.presented_sha256 = row.revision + 1, row.sha256
            return row.revision

    def brief(self, thread: str) -> tuple[Brief, str, int] | None:
        """The thread's draft: the model, its Markdown and its revision."""
        with self.db.session() as session:
            row = session.get(BriefRow, thread)
            if row is None:
                return None
            return Brief.model_validate(row.brief), row.markdown, row.revision

    def all_briefs(self) -> list[tuple[str, Brief, int]]:
        """Every thread's draft: the thread, the model and its revision."""
        with self.db.session() as session:
            return [(row.thread, Brief.model_validate(row.brief), row.revision)
                    for row in session.scalars(select(BriefRow).order_by(BriefRow.thread))]

    # artifacts ----------------------------------------------------------------
    def save_artifact(self, thread: str, name: str, payload: dict) -> None:
        """Store a node's result for the thread under ``name`` (replacing the previous one)."""
        with self.db.session() as session:
            self._upsert(session, ArtifactRow.__table__, {"thread": thread, "name": name, "payload": payload},
                         ["thread", "name"])

    def artifact(self, thread: str, name: str) -> dict | None:
        """The result stored under ``name`` for the thread."""
        with self.db.session() as session:
            row = session.scalars(
                select(ArtifactRow).where(ArtifactRow.thread == thread, ArtifactRow.name == name)
            ).first()
            return dict(row.payload) if row else None

    # decisions ----------------------------------------------------------------
    def decide(self, thread: str, revision: int, action: str, by: str, *, sha256: str | None = None,
               reason: str | None = None, auto: bool = False, edited: bool = False) -> tuple[DecisionRow, bool]:
        """Record the decision on a revision unless one is recorded already (one conditional insert).

        Returns the decision that stands and whether it is the one just given.
        """
        key = f"{thread}#{revision}"
        with self.db.session() as session:
            inserted = session.execute(_insert(self.db)(DecisionRow.__table__).values(
                thread=thread, revision=revision, action=action, by=by, at=datetime.now(UTC), sha256=sha256,
                reason=reason, auto=auto, edited=edited, published=None, decided_key=key,
            ).on_conflict_do_nothing(index_elements=["decided_key"]).returning(DecisionRow.__table__.c.id))
            mine = inserted.scalar()  # None: another decision on this revision was there first
            row = session.scalar(select(DecisionRow).where(DecisionRow.decided_key == key))
            return row, mine is not None and mine == row.id

    def decision(self, decision_id: int) -> DecisionRow | None:
        """One decision by id."""
        with self.db.session() as session:
            return session.get(DecisionRow, decision_id)

    def retire_revision(self, thread: str) -> None:
        """After a reject: the next draft presented is a new revision even when its text is the same."""
        with self.db.session() as session:
            session.execute(update(BriefRow).where(BriefRow.thread == thread).values(presented_sha256=None))

    def unpublished_approvals(self) -> list[DecisionRow]:
        """Approvals whose publishing has not completed, oldest first."""
        with self.db.session() as session:
            return list(session.scalars(select(DecisionRow).where(
                DecisionRow.action == "approve", DecisionRow.published.is_(None),
                DecisionRow.decided_key.is_not(None)).order_by(DecisionRow.id)))

    def mark_published(self, decision_id: int, path: str) -> None:
        """Remember where an approved draft was published."""
        with self.db.session() as session:
            row = session.get(DecisionRow, decision_id)
            if row is not None:
                row.published = path

    def decisions(self, thread: str) -> list[DecisionRow]:
        """Every decision on a thread, oldest first."""
        with self.db.session() as session:
            return list(session.scalars(
                select(DecisionRow).where(DecisionRow.thread == thread).order_by(DecisionRow.id)))

    def record_warning_decision(self, thread: str, day: str, warning_id: str, key: str, action: str, by: str,
                                reason: str | None) -> None:
        """Record a dismiss/confirm of one warning."""
        with self.db.session() as session:
            session.add(WarningDecisionRow(thread=thread, day=day, warning_id=warning_id, key=key, action=action,
                                           by=by, reason=reason, at=datetime.now(UTC)))

    def dismissed_keys(self, before_day: str) -> dict[str, WarningDecisionRow]:
        """Warning keys dismissed on briefs dated before ``before_day`` (latest decision wins)."""
        with self.db.session() as session:
            rows = session.scalars(select(WarningDecisionRow).where(WarningDecisionRow.day < before_day)
                                   .order_by(WarningDecisionRow.id))
            latest: dict[str, WarningDecisionRow] = {}
            for row in rows:
                latest[row.key] = row
            return {key: row for key, row in latest.items() if row.action == "dismiss"}
