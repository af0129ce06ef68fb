package org.rampa.solver.backend;

import com.google.ortools.Loader;
import com.google.ortools.init.OrToolsVersion;
import com.sun.jna.Platform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
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
 * {@link UnsatisfiedLinkError}; when the jar with this platform's natives is missing, or sits nested
 * in another jar (a Spring Boot fat jar), it throws a bare {@link NullPointerException} or
 * file-system exception. So the load is confirmed with one cheap native call, and a failure is
 * reported with its cause and the fix, on every use. Public so every MPSolver user of the JVM (the
 * examples' offline admission bound too) shares the one load.
 *
 * @since 0.1.0
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
      } catch (UnsatisfiedLinkError | RuntimeException e) {
        // the loader throws a NullPointerException when the platform jar is absent and a
        // file-system exception when the jar is nested in another: catch all, explain each
        String platform = Platform.RESOURCE_PREFIX;
        URL nativeFolder = Loader.class.getClassLoader().getResource("ortools-" + platform + "/");
        return explain(e, platform, nativeFolder == null ? null : nativeFolder.toString(), temporaryDirectoryProblem());
      }
    }
  }

  /**
   * What went wrong and what to do, from the loader's failure, the platform's native folder name
   * (JNA's resource prefix, as the loader looks it up), where that folder was found (null: nowhere)
   * and what is wrong with {@code java.io.tmpdir}, if anything.
   */
  static String explain(Throwable failure, String platform, String nativeFolder, Optional<String> temporaryDirectoryProblem) {
    String artifact = "com.google.ortools:ortools-" + platform;
    String what = "the OR-Tools native libraries did not load (" + failure + "); ";
    if (nativeFolder == null) {
      return what + "the class path has no native jar for this platform (" + artifact + ", folder ortools-" + platform
          + "/). Maybe it was excluded from ortools-java's dependencies: keep the one for the platform the JVM runs on"
          + " (README, \"OR-Tools native libraries\"), or add " + artifact + " with ortools-java's version";
    }
    String where = nativeFolder;
    if (where.startsWith("jar:nested:") || where.indexOf("!/") != where.lastIndexOf("!/") || where.contains("!/BOOT-INF/")) {
      return what + "the natives are inside a jar nested in another jar (" + where + "), such as a Spring Boot fat jar,"
          + " and OR-Tools can only unpack them from a plain jar on the class path. Maybe mark " + artifact
          + " (and ortools-java) as requiresUnpack in the spring-boot-maven-plugin or Gradle bootJar configuration,"
          + " or run with the jars on a plain class path";
    }
    return what + temporaryDirectoryProblem.orElse("java.io.tmpdir = " + System.getProperty("java.io.tmpdir")
        + " looks usable and the natives were found at " + where + ". Maybe the platform jar does not match this"
        + " JVM (os.arch = " + System.getProperty("os.arch") + ") or its libraries need system libraries this machine lacks");
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
