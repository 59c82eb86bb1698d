/**
 * High availability on PostgreSQL: two or more controllers share one database; the one holding
 * the lease ({@code controller_lease}, one row) leads, the others stand by.
 *
 * <p>Contract: a controller acts (loads state, schedules, launches, calls agents) only while it
 * holds the lease at its term. Every write it makes is fenced in the database: a trigger on every
 * table checks, in the writing transaction, that the lease is still at the writer's term, so a
 * deposed leader's commit is refused. Taking the lease increments the term and waits for the
 * deposed leader's in-flight writes (their share lock on the lease row), so the new leader loads
 * everything the old one committed. A leader that cannot renew its lease before it expires halts
 * at once (status {@link io.squall.api.ha.LeaseKeeper#EXIT_LOST_LEASE}) and its supervisor starts it
 * again as a standby. Times come from the database's clock, never from the controllers'.
 */
package io.squall.api.ha;
