/**
 * The client side of the Squall REST API (docs/rest-api.md): where the service is
 * ({@link ServiceAddress}), the calls ({@link SquallClient}) and what they answer (records).
 *
 * <p>Contract: every call is one blocking HTTP request. A call either returns the decoded answer
 * or throws {@link ServiceException} (the service said no: status and its {@code error} message)
 * or {@link ServiceUnreachableException} (no answer at all). Records keep the service's values as
 * they are; unknown JSON fields are ignored and missing ones are null (0 for primitives), so a newer
 * service does not break an older client. Only the field that names an entry (a job's
 * {@code job_id}, a node's, partition's or reservation's {@code name}) is required; a missing one,
 * or a field of the wrong type, is a {@link ServiceException} naming it ({@code jobs[1].num_nodes:
 * expected a whole number, got "two"}).
 */
package io.squall.cli.service;
