package org.rampa.examples.cli;

/**
 * The separator of every comma-separated option. Picocli drops a trailing empty element, so with a
 * plain "," the typo {@code --planners a,} would silently read as {@code [a]}; this pattern leaves a
 * trailing comma on the last element, where the element's own check rejects it with the value.
 */
final class ListOption {
  static final String SEPARATOR = ",(?!$)";
  /** How the separator reads in the usage help. */
  static final String LABEL = ",";

  private ListOption() {}
}
