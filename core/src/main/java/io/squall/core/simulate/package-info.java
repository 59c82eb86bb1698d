/**
 * Elastic capacity in virtual time: {@link io.squall.core.simulate.SimulatedProvider} is a cloud
 * with a catalogue, capacities, seeded spot capacity failures and boot latency;
 * {@link io.squall.core.simulate.ElasticSimulation} runs the production scheduler and power
 * planner against it, applying their plans as the controller does, and reports launch calls,
 * time to launch, idle and billed node time. Pure like the rest of the core: time is a
 * {@link io.squall.core.simulate.VirtualClock}, randomness a seeded generator, so the same seed
 * and workload give the same result.
 */
package io.squall.core.simulate;
