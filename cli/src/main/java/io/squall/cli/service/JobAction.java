package io.squall.cli.service;

/** The state changes {@code POST /v1/jobs/{id}/ACTION} offers (scontrol hold, release, requeue). */
public enum JobAction {
  HOLD("hold"), RELEASE("release"), REQUEUE("requeue"), PAUSE("pause");

  private final String path;

  JobAction(String path) {
    this.path = path;
  }

  /** The last path segment. */
  public String path() {
    return path;
  }
}
