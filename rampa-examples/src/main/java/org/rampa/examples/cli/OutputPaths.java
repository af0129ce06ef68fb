package org.rampa.examples.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.rampa.domain.Invalid;

/**
 * The one up-front check of every command's output path, run before any work, so that a bad
 * {@code --out} costs nothing and the results of a long run are not lost at its end: the folder
 * exists (or is created), a file can be created in it (procfs and read-only mounts answer only to
 * a real attempt), and nothing the run writes is in the way.
 */
final class OutputPaths {
  private OutputPaths() {}

  /** {@code out} as the folder of the files {@code outputs}, created if needed. */
  static void folder(String option, Path out, List<String> outputs) {
    requireNonEmpty(option, out);
    try {
      Files.createDirectories(out);
    } catch (FileAlreadyExistsException e) {
      throw Invalid.value(option, out, "cannot be the output folder: " + e.getFile() + " exists and is not a folder",
          "name a new or existing folder");
    } catch (IOException e) {
      throw Invalid.value(option, out, "cannot be the output folder: " + reason(e));
    }
    requireWritable(option, out, out);
    for (String name : outputs) {
      requireReplaceable(option, out, out.resolve(name));
    }
  }

  /**
   * {@code file} as an output file; its folder must already exist (a mistyped folder is likelier
   * than one to create). Files written next to it are checked with {@link #replaceable}.
   */
  static void file(String option, Path file) {
    requireNonEmpty(option, file);
    if (file.getFileName() == null || Files.isDirectory(file)) {
      throw Invalid.value(option, file, "names a folder, but must name a file", "add a file name, e.g. " + file.resolve("out.json"));
    }
    Path folder = file.toAbsolutePath().getParent();
    if (!Files.isDirectory(folder)) {
      throw Invalid.value(option, file, "its folder " + folder + " does not exist (or is not a folder)", "create it first");
    }
    requireWritable(option, file, folder);
    requireReplaceable(option, file, file);
  }

  /** Each of {@code files}, written because of {@code option = given}, is absent or a writable file. */
  static void replaceable(String option, Path given, List<Path> files) {
    files.forEach(f -> requireReplaceable(option, given, f));
  }

  private static void requireNonEmpty(String option, Path path) {
    if (path.toString().isEmpty()) {
      throw Invalid.value(option, "\"\"", "the path is empty", option + " . for the current folder");
    }
  }

  private static void requireWritable(String option, Path given, Path folder) {
    try {
      Files.delete(Files.createTempFile(folder, ".rampa-write-check", ""));
    } catch (IOException e) {
      throw Invalid.value(option, given, "cannot be written: the folder " + folder + " is not writable (" + reason(e) + ")");
    }
  }

  private static void requireReplaceable(String option, Path given, Path file) {
    if (Files.exists(file) && !(Files.isRegularFile(file) && Files.isWritable(file))) {
      throw Invalid.value(option, given, "cannot be written: " + file + " exists and cannot be overwritten", "remove it or choose another path");
    }
  }

  private static String reason(IOException e) {
    if (e instanceof AccessDeniedException a) {
      return "permission denied on " + a.getFile();
    }
    if (e instanceof NoSuchFileException n) {
      return n.getFile() + " does not exist and cannot be created";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getFile() + ": " + f.getReason();
    }
    return e.toString();
  }
}
