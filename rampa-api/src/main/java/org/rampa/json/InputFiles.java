package org.rampa.json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.rampa.domain.Invalid;

/**
 * Reads the text files RAMPA imports (JSON documents, arrival traces, profiles) with a bound on
 * their size and strict UTF-8 decoding, so that a never-ending file ({@code /dev/zero}) fails fast
 * instead of filling the heap, and an unreadable file says why: missing, a directory, not
 * readable, too large or not UTF-8. A leading UTF-8 byte-order mark is dropped.
 */
public final class InputFiles {

  /** The largest input file read: far above any real cluster, profile or trace (the large preset is 0.5 MiB). */
  public static final int MAX_BYTES = 64 << 20;

  private static final String BYTE_ORDER_MARK = "\uFEFF";

  private InputFiles() {}

  /** The whole file as text; an {@link IllegalArgumentException} naming the file and the reason otherwise. */
  public static String readText(Path file) {
    if (file.toString().isEmpty()) {
      throw Invalid.value("file", "\"\"", "the path is empty", "name a file");
    }
    if (Files.isDirectory(file)) {
      throw Invalid.value("file", file, "cannot be read: it is a directory", "name a file inside it");
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (NoSuchFileException e) {
      throw Invalid.value("file", file, "cannot be read: it does not exist");
    } catch (AccessDeniedException e) {
      throw Invalid.value("file", file, "cannot be read: permission denied");
    } catch (IOException e) {
      throw Invalid.value("file", file, "cannot be read: " + e.getMessage());
    }
    if (bytes.length > MAX_BYTES) {
      throw Invalid.value("file", file, "is larger than " + (MAX_BYTES >> 20) + " MiB, the limit for input files",
          "the path names a device or the wrong file");
    }
    try {
      String text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
      // editors on Windows start UTF-8 files with a byte-order mark; it is not part of the first header or key
      return text.startsWith(BYTE_ORDER_MARK) ? text.substring(1) : text;
    } catch (CharacterCodingException e) {
      throw Invalid.value("file", file, "is not UTF-8 text", "save it as UTF-8");
    }
  }
}
