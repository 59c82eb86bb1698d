/**
 * The drain of interrupted nodes, one engine for the controller and the simulator: a notice
 * drains the node and sends its jobs their checkpoint signal; each job is stopped as soon as it
 * registered a checkpoint, or at the deadline minus its partition's margin; the
 * {@link io.squall.spot.drain.RequeueDecision} says what becomes of it; once no job is left on
 * the node its machine is given up. Users' checkpointed requeues (pause) take the same path. Pure: time comes in as
 * arguments, and everything the drain reads or changes goes through a
 * {@link io.squall.spot.drain.DrainLedger}.
 */
package io.squall.spot.drain;
