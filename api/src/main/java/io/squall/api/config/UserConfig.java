package io.squall.api.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;

/**
 * A user, the API token that identifies them (or its hash) and their default account
 * ({@code squall.users.NAME.*}).
 */
@EachProperty("squall.users")
public class UserConfig {
  private final String name;
  private String token;
  private String tokenHash;
  private String account;
  private boolean operator;
  private int shares = 1;

  public UserConfig(@Parameter String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }

  public String getToken() {
    return token;
  }

  public void setToken(String token) {
    this.token = token;
  }

  /** The token's SHA-256 ({@code sha256:HEX}), in place of the token itself. */
  public String getTokenHash() {
    return tokenHash;
  }

  public void setTokenHash(String tokenHash) {
    this.tokenHash = tokenHash;
  }

  public String getAccount() {
    return account;
  }

  public void setAccount(String account) {
    this.account = account;
  }

  /** Operators see and control every job (Slurm's operator/admin level). */
  public boolean isOperator() {
    return operator;
  }

  public void setOperator(boolean operator) {
    this.operator = operator;
  }

  public int getShares() {
    return shares;
  }

  public void setShares(int shares) {
    this.shares = shares;
  }
}
