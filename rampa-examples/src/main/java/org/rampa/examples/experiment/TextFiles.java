package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writing the experiments' CSV and text outputs. */
final class TextFiles {

  private TextFiles() {}

  /** Writes {@code text} to {@code file}, creating its folder; an I/O failure names the file. */
  static void write(Path file, CharSequence text) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
