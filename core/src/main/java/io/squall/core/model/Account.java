package io.squall.core.model;

/**
 * A fair-share account; accounts form a tree under {@code root}.
 *
 * @param parent the parent account, or null for a child of root
 * @param shares this account's share among its siblings
 */
public record Account(String name, String parent, int shares) {}
