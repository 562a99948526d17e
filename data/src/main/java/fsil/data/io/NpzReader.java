package fsil.data.io;

import fsil.api.InvalidDataException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Reads NumPy {@code .npz} archives ({@code np.savez} / {@code np.savez_compressed}): a zip of {@code .npy}
 * entries. Entry names with path traversal ({@code ..}, absolute paths, backslashes, drive letters) are rejected,
 * as are archives with more than {@link #MAX_ENTRIES} entries, entries whose declared or actual uncompressed size
 * exceeds {@link NpyReader#MAX_DATA_BYTES}, and entries whose compression ratio exceeds {@link #MAX_RATIO}
 * (zip bombs), and archives holding two entries of the same name. Every error names the archive and the entry.
 */
public final class NpzReader {
    public static final int MAX_ENTRIES = 1024;
    /** Largest accepted uncompressed/compressed size ratio. Dense float arrays compress far less than this. */
    public static final long MAX_RATIO = 200;

    private NpzReader() {
    }

    /** All arrays of the archive by key (entry name without {@code .npy}), in archive order. */
    public static Map<String, NpyArray> read(Path file) {
        InputFiles.requireRegularFile(file);
        Map<String, NpyArray> out = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(file.toFile())) {
            if (zip.size() > MAX_ENTRIES) {
                throw new InvalidDataException(file + ": .npz archive has " + zip.size() + " entries, more than the"
                        + " limit of " + MAX_ENTRIES);
            }
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                String name = e.getName();
                checkName(file, name);
                String source = file + "!" + InputFiles.oneLine(name, 80);
                if (e.isDirectory()) {
                    throw new InvalidDataException(source + ": .npz archives hold only .npy files, found a"
                            + " directory entry");
                }
                if (!name.endsWith(".npy")) {
                    throw new InvalidDataException(source + ": .npz entry is not a .npy file");
                }
                long size = e.getSize();
                long csize = e.getCompressedSize();
                if (size > NpyReader.MAX_DATA_BYTES) {
                    throw new InvalidDataException(source + ": entry declares " + size + " bytes, more than the"
                            + " supported " + NpyReader.MAX_DATA_BYTES);
                }
                if (size > 1 << 20 && csize > 0 && size / csize > MAX_RATIO) {
                    throw new InvalidDataException(source + ": entry expands " + (size / csize) + "-fold ("
                            + csize + " -> " + size + " bytes); refusing a suspected zip bomb");
                }
                String key = name.substring(0, name.length() - 4);
                if (out.containsKey(key)) {
                    throw new InvalidDataException(source + ": the archive holds two entries with this name;"
                            + " refusing to guess which one is meant");
                }
                try (InputStream in = new BoundedInputStream(zip.getInputStream(e),
                        size >= 0 ? size : NpyReader.MAX_DATA_BYTES, source)) {
                    out.put(key, NpyReader.read(source, in, size));
                } catch (IOException ex) {
                    throw InputFiles.unreadable(source, ex);
                }
            }
        } catch (ZipException e) {
            throw new InvalidDataException(file + ": not a valid .npz (zip) archive: "
                    + InputFiles.oneLine(e.getMessage()), e);
        } catch (IOException e) {
            throw InputFiles.unreadable(file.toString(), e);
        } catch (IllegalArgumentException e) {
            // ZipFile reports entry names that are not valid UTF-8 (and other malformed central directories) so
            throw new InvalidDataException(file + ": not a valid .npz (zip) archive: "
                    + InputFiles.oneLine(e.getMessage()), e);
        }
        if (out.isEmpty()) {
            throw new InvalidDataException(file + ": .npz archive holds no arrays");
        }
        return out;
    }

    static void checkName(Path file, String name) {
        boolean bad = name.isEmpty() || name.startsWith("/") || name.contains("\\") || name.contains("\0")
                || (name.length() > 1 && name.charAt(1) == ':');
        for (String part : name.split("/")) {
            if (part.equals("..")) {
                bad = true;
            }
        }
        if (bad) {
            throw new InvalidDataException(file + ": .npz entry name '" + InputFiles.oneLine(name, 80)
                    + "' contains path traversal or an absolute path; refusing the archive");
        }
    }

    /** Key names tried for features and labels when reading a labelled .npz. */
    static final String[] FEATURE_KEYS = {"features", "x", "X", "data", "feats", "all_feats"};
    static final String[] LABEL_KEYS = {"labels", "y", "Y", "targets", "target", "all_labels"};

    /** Reads a labelled .npz: features under one of {@link #FEATURE_KEYS}, labels under one of {@link #LABEL_KEYS}. */
    public static LabeledTable readLabeled(Path file) {
        Map<String, NpyArray> arrays = read(file);
        NpyArray x = pick(arrays, FEATURE_KEYS, file, "features");
        NpyArray y = pick(arrays, LABEL_KEYS, file, "labels");
        var features = x.toFeatureMatrix();
        RawLabels labels = y.toLabelValues();
        if (features.rows() != labels.size()) {
            throw new InvalidDataException(file + ": " + labels.size() + " labels ('" + y.source() + "') but "
                    + features.rows() + " feature rows ('" + x.source() + "')");
        }
        return LabeledTable.of(file.toString(), features, labels);
    }

    private static NpyArray pick(Map<String, NpyArray> arrays, String[] keys, Path file, String what) {
        for (String k : keys) {
            if (arrays.containsKey(k)) {
                return arrays.get(k);
            }
        }
        throw new InvalidDataException(file + ": no " + what + " array; expected one of the keys "
                + String.join(", ", keys) + " but the archive has " + InputFiles.oneLine(arrays.keySet().toString()));
    }

    /** Fails once more than {@code limit} bytes are read (protects against lying size fields). */
    static final class BoundedInputStream extends java.io.FilterInputStream {
        private long remaining;
        private final String source;

        BoundedInputStream(InputStream in, long limit, String source) {
            super(in);
            this.remaining = limit;
            this.source = source;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0 && --remaining < 0) {
                throw new InvalidDataException(source + ": entry is larger than its declared size");
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                remaining -= n;
                if (remaining < 0) {
                    throw new InvalidDataException(source + ": entry is larger than its declared size");
                }
            }
            return n;
        }
    }
}
