/**
 * Advanced reservations' rules outside the scheduling cycle, as slurmctld applies them
 * (SchedMD/slurm src/slurmctld/reservation.c, reservations.html): what a create request must say
 * and which nodes it gets, who may submit to a reservation, when one may be deleted, and when an
 * ended one is purged. Each refusal is a {@link io.squall.core.reserve.ReservationException} in
 * Slurm's words. The cycle itself ({@link io.squall.core.schedule.Scheduler}) keeps other jobs off
 * a reservation's nodes for its window and its own jobs within it.
 */
package io.squall.core.reserve;
