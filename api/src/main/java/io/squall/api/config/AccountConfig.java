package io.squall.api.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;

/** A fair-share account ({@code squall.accounts.NAME.*}). */
@EachProperty("squall.accounts")
public class AccountConfig {
  private final String name;
  private String parent;
  private int shares = 1;

  public AccountConfig(@Parameter String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }

  /** The parent account; none for a child of root. */
  public String getParent() {
    return parent;
  }

  public void setParent(String parent) {
    this.parent = parent;
  }

  public int getShares() {
    return shares;
  }

  public void setShares(int shares) {
    this.shares = shares;
  }
}
