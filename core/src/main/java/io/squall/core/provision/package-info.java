/**
 * Elastic capacity decisions, pure: which powered-down nodes to launch together and as which
 * offering (spot or on-demand, type, zone, price cap, capacity fallback with a memory of what
 * failed), which idle nodes to give back after their partition's suspend time, which resumes to
 * abandon after the resume timeout or the attempt budget. The controller and the simulator carry
 * out the same {@link io.squall.core.provision.PowerAction}s.
 */
package io.squall.core.provision;
