package org.rampa.solver;

import com.google.ortools.Loader;
import com.google.ortools.init.OrToolsVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Loads the OR-Tools native libraries once per JVM, on first use: loading costs about 1.6 s, so
 * it happens lazily (class initialisation is thread-safe and runs once) and never again.
 *
 * <p>{@link Loader#loadNativeLibraries()} unpacks the libraries into {@code java.io.tmpdir} and,
 * when that fails, swallows the error: every later native call then fails with a bare
 * {@link UnsatisfiedLinkError}. So the load is confirmed with one cheap native call, and a failure
 * is reported with its cause and the fix, on every use. Public so every MPSolver user of the JVM (the
 * examples' offline admission bound too) shares the one load.
 */
public final class OrToolsNatives {
  private OrToolsNatives() {}

  private static final class Holder {
    /** Why the libraries are unusable, or null once they work. */
    static final String FAILURE = load();

    private static String load() {
      try {
        Loader.loadNativeLibraries();
        OrToolsVersion.getVersionString(); // a native call: throws when nothing was loaded
        return null;
      } catch (UnsatisfiedLinkError e) {
        return "the OR-Tools native libraries did not load (" + e.getMessage() + "); "
            + temporaryDirectoryProblem().orElse("java.io.tmpdir = " + System.getProperty("java.io.tmpdir")
            + " looks usable, so the libraries for this platform may be missing from the classpath");
      }
    }
  }

  /** Throws an {@link UncheckedIOException} naming the cause and the fix when the natives are unusable. */
  public static void ensureLoaded() {
    if (Holder.FAILURE != null) {
      throw new UncheckedIOException(Holder.FAILURE, new IOException(Holder.FAILURE));
    }
  }

  /** The loader's own first step, repeated to learn why it failed: it unpacks into a new temporary directory. */
  private static Optional<String> temporaryDirectoryProblem() {
    String tmp = System.getProperty("java.io.tmpdir");
    try {
      Path probe = Files.createTempDirectory("rampa-ortools-probe");
      Files.delete(probe);
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      String why = e instanceof NoSuchFileException ? "it does not exist"
          : e instanceof AccessDeniedException ? "permission denied"
          : e.getMessage();
      return Optional.of("java.io.tmpdir = " + tmp + " is not a writable directory (" + why
          + "). Maybe start the JVM with -Djava.io.tmpdir=/a/writable/directory");
    }
  }
}
