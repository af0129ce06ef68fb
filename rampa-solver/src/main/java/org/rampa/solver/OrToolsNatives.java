package org.rampa.solver;

import com.google.ortools.Loader;

/**
 * Loads the OR-Tools native libraries once per JVM, on first use: loading costs about 1.6 s, so
 * it happens lazily (class initialisation is thread-safe and runs once) and never again. Public so
 * every MPSolver user of the JVM (the examples' offline admission bound too) shares the one load.
 */
public final class OrToolsNatives {
  private OrToolsNatives() {}

  private static final class Holder {
    static {
      Loader.loadNativeLibraries();
    }

    static void initialise() {
      // calling this runs the static initialiser above exactly once
    }
  }

  public static void ensureLoaded() {
    Holder.initialise();
  }
}
