/**
 * EC2 events as EventBridge delivers them (to an SQS queue, a Lambda, any target): the JSON of
 * one event turned into at most one {@link io.squall.core.spot.Interruption} of source {@link
 * io.squall.core.spot.Interruption.Source#AWS_EVENTS}.
 *
 * <p>Contract: {@link io.squall.spot.events.Ec2Events#parse} is a pure function of the text (no
 * clock, no I/O, no SDK), so a transport in {@code providers/aws} can call it on each message
 * body and the same body always gives the same answer: redeliveries give equal interruptions,
 * and a body that fails once fails forever. It answers empty for every event that is not about
 * an interruption, and throws only for text that is not an event at all.
 */
package io.squall.spot.events;
