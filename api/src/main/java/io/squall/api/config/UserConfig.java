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
  private String unixUser;
  private Integer uid;
  private Integer gid;

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

  /**
   * The token's hash in place of the token itself: its SHA-256 ({@code sha256:HEX}) or a bcrypt
   * hash ({@code $2a$}, {@code $2b$}, {@code $2y$}), as {@code squall hash-token} prints them.
   */
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

  /** The OS user the user's jobs run as on the nodes; default: the same name. */
  public String getUnixUser() {
    return unixUser;
  }

  public void setUnixUser(String unixUser) {
    this.unixUser = unixUser;
  }

  /** Instead of {@link #getUnixUser()}: a numeric uid (with {@link #getGid()}), the same on every node. */
  public Integer getUid() {
    return uid;
  }

  public void setUid(Integer uid) {
    this.uid = uid;
  }

  public Integer getGid() {
    return gid;
  }

  public void setGid(Integer gid) {
    this.gid = gid;
  }

  public int getShares() {
    return shares;
  }

  public void setShares(int shares) {
    this.shares = shares;
  }
}
