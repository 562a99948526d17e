package fsil.data.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Writes .npz archives (stored entries, as np.savez does) for tests. */
public final class NpzFiles {

    private NpzFiles() {
    }

    /** An archive of alternating entry names and contents. */
    public static Path write(Path file, Object... namesAndBytes) {
        try {
            Files.write(file, bytes(namesAndBytes));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of an archive of alternating entry names and contents. */
    public static byte[] bytes(Object... namesAndBytes) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bos)) {
            for (int i = 0; i < namesAndBytes.length; i += 2) {
                byte[] data = (byte[]) namesAndBytes[i + 1];
                ZipEntry z = new ZipEntry((String) namesAndBytes[i]);
                CRC32 crc = new CRC32();
                crc.update(data);
                z.setMethod(ZipEntry.STORED);
                z.setSize(data.length);
                z.setCompressedSize(data.length);
                z.setCrc(crc.getValue());
                zip.putNextEntry(z);
                zip.write(data);
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bos.toByteArray();
    }

    /**
     * An archive with {@code xName -> x}, {@code yName -> first} and a second entry also named {@code yName}
     * holding {@code second} (ZipOutputStream refuses duplicates, so it is written under a placeholder name of the
     * same length that is then patched in the local header and the central directory).
     */
    public static Path withDuplicate(Path file, String xName, byte[] x, String yName, byte[] first, byte[] second) {
        String placeholder = "Q" + yName.substring(1);
        byte[] zip = bytes(xName, x, yName, first, placeholder, second);
        byte[] from = placeholder.getBytes(StandardCharsets.ISO_8859_1);
        byte[] to = yName.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i + from.length <= zip.length; i++) {
            boolean match = true;
            for (int k = 0; k < from.length && match; k++) {
                match = zip[i + k] == from[k];
            }
            if (match) {
                System.arraycopy(to, 0, zip, i, to.length);
            }
        }
        try {
            Files.write(file, zip);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
