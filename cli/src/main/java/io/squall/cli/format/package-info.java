/**
 * How Slurm's client tools print things: durations ({@link SlurmTime}), moments as
 * {@code SLURM_TIME_FORMAT} says ({@link TimeFormat}, {@link Strftime}), job and
 * node state names ({@link JobStates}, {@link NodeStates}), TRES strings and exit codes
 * ({@link SlurmValues}), and format templates with widths and justification ({@link LineTemplate},
 * {@link Table}) shared by squeue, sinfo and sacct.
 *
 * <p>Contract: pure functions of their inputs (zone and "now" are passed in), so output is the
 * same on every machine given the same data; nothing here talks to the service.
 */
package io.squall.cli.format;
