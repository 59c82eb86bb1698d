/**
 * The checkpoint contract between Squall and a job, as pure rules: which signal tells a job to
 * checkpoint ({@link io.squall.checkpoint.CheckpointSignal}), which of its checkpoints a restart
 * restores from ({@link io.squall.checkpoint.Checkpoint#latest}), which files in its checkpoint
 * directory count as checkpoints ({@link io.squall.checkpoint.CheckpointFiles}), and what an
 * interruption cost it ({@link io.squall.checkpoint.LostWork}). The controller keeps the catalog
 * and carries the rules out; the agent gives jobs the {@code squall checkpoint register} tool.
 */
package io.squall.checkpoint;
