package org.rampa.solver.backend;

import java.io.UncheckedIOException;

/** Loads the OR-Tools natives in a JVM of its own (see {@link OrToolsNativesTest}); exit 3 reports a refusal. */
public final class NativesProbe {
  private NativesProbe() {}

  public static void main(String[] args) {
    try {
      OrToolsNatives.ensureLoaded();
      System.out.println("loaded");
    } catch (UncheckedIOException e) {
      System.out.println(e.getMessage());
      // asked twice, it gives the same answer (a failed class initialiser would not)
      try {
        OrToolsNatives.ensureLoaded();
      } catch (UncheckedIOException again) {
        System.exit(again.getMessage().equals(e.getMessage()) ? 3 : 4);
      }
      System.exit(4);
    }
  }
}
