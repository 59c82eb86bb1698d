package io.squall.core.model;

/** A user's membership in an account, with the user's share among the account's users. */
public record UserAssociation(String user, String account, int shares) {}
