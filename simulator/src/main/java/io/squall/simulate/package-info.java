/**
 * Elastic capacity in virtual time: {@link io.squall.simulate.SimulatedProvider} is a cloud
 * with a catalogue, capacities, seeded spot capacity failures, boot latency and, optionally, spot
 * reclaims ({@link io.squall.simulate.SpotReclaims}; {@link io.squall.simulate.TraceReclaims}
 * drives them from recorded spot availability); {@link io.squall.simulate.ElasticSimulation}
 * runs the production scheduler and power planner against it, applying their plans as the
 * controller does and handling interruption notices as the controller's responder does
 * ({@link io.squall.simulate.InterruptionRules}, with the jobs'
 * {@link io.squall.simulate.Checkpointing}), and reports launch calls, time to launch, idle
 * and billed node time, interruptions, requeues and lost GPU time. Pure like the rest of the core:
 * time is a {@link io.squall.core.time.ManualClock}, randomness a seeded generator, so the
 * same seed and workload give the same result.
 */
package io.squall.simulate;

