package fsil.eval.report;

import fsil.api.FsilException;
import fsil.data.Datasets;
import fsil.data.io.AtomicFiles;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.SoftReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * The plotly.min.js beside a report: a copy of its own (4.6 MB) checked against the hash of the file fsil ships, so
 * that no other run can change the script of a report, and the report opens offline.
 */
public final class PlotlyAsset {
    public static final String FILE = "plotly.min.js";
    static final String VERSION = "2.35.2";
    /** SHA-256 of plotly.min.js 2.35.2 as fsil ships it (resource fsil/report/plotly.min.js). */
    static final String SHA256 = "6d21266ce1bd7d9e5ab4e115989c70c20de0382fd973a8f26ab58619eba4d603";
    static final long SIZE = 4_558_696;

    private PlotlyAsset() {
    }

    /**
     * plotly.min.js next to the report, from the cache of the default cache directory: see
     * {@link #copyTo(Path, Path)}.
     */
    public static void copyTo(Path dir) {
        copyTo(dir, Datasets.defaultCacheDir());
    }

    /**
     * plotly.min.js next to the report: a private copy (written to a temporary file and renamed), so that no other
     * run can change the script of this report. Its bytes come from {@code plotly-2.35.2.min.js} in
     * {@code cacheDir} when that copy has the SHA-256 of the file fsil ships ({@link #SHA256}); a cached copy
     * that differs (or is missing) is re-created from the resource. A run directory's copy that is intact and not
     * shared with another file (a hard link made by an older fsil) is left as it is; any other is replaced, so
     * {@code fsil report} repairs a damaged copy.
     */
    public static void copyTo(Path dir, Path cacheDir) {
        Path target = dir.resolve(FILE);
        if (intactPrivateCopy(target)) {
            return;
        }
        byte[] js = verified(cacheDir);
        AtomicFiles.write(target, out -> out.write(js));
    }

    /** Whether {@code file} holds exactly the shipped plotly.js and has no other name (hard link). */
    static boolean intactPrivateCopy(Path file) {
        try {
            if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    || Files.size(file) != SIZE || links(file) != 1) {
                return false;
            }
            return SHA256.equals(sha256(Files.readAllBytes(file)));
        } catch (IOException e) {
            return false;
        }
    }

    /** The number of names of a file (1 where the file system cannot tell). */
    private static int links(Path file) throws IOException {
        try {
            return ((Number) Files.getAttribute(file, "unix:nlink", java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .intValue();
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return 1;
        }
    }

    /**
     * The cache file last checked in this process, as the file system describes it, with its bytes (held softly:
     * the collector may take the 4.6 MB back). While the file still has that size, modification time and file key,
     * its bytes are those checked, and a run writes its copy without reading and hashing the cache again (about
     * 10 ms on an idle machine, 30-45 ms on a loaded one, per run). Any write to the file changes its
     * modification time, so a damaged cache is still found and re-created.
     */
    private record Checked(Path file, long size, FileTime modified, Object key, SoftReference<byte[]> bytes) {
        static Checked of(Path file, byte[] bytes) throws IOException {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Checked(file, a.size(), a.lastModifiedTime(), a.fileKey(), new SoftReference<>(bytes));
        }

        /** The bytes checked, if {@code file} is still the file they were checked in, else null. */
        byte[] bytesIfUnchanged(Path file) throws IOException {
            byte[] b = bytes.get();
            if (b == null || !this.file.equals(file)) {
                return null;
            }
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return a.size() == size && a.lastModifiedTime().equals(modified) && java.util.Objects.equals(a.fileKey(),
                    key) ? b : null;
        }
    }

    private static volatile Checked lastChecked;

    /**
     * The bytes of plotly.js, checked against {@link #SHA256}: those of the cache's copy when it is intact,
     * else those of the resource, which then replace the cache's copy (atomically; a cache that cannot be written is
     * left as it is). The bytes returned are the ones checked, so a cache file changed meanwhile cannot slip in.
     */
    static byte[] verified(Path cacheDir) {
        Path shared = cacheDir == null ? null : cacheDir.resolve("plotly-" + VERSION + ".min.js").toAbsolutePath();
        if (shared != null) {
            try {
                Checked last = lastChecked;
                byte[] known = last == null ? null : last.bytesIfUnchanged(shared);
                if (known != null) {
                    return known;
                }
                if (Files.isRegularFile(shared) && Files.size(shared) == SIZE) {
                    byte[] cached = Files.readAllBytes(shared);
                    if (SHA256.equals(sha256(cached))) {
                        lastChecked = Checked.of(shared, cached);
                        return cached;
                    }
                }
            } catch (IOException e) {
                // unreadable: re-created below
            }
        }
        byte[] js = shipped();
        if (shared != null) {
            try {
                AtomicFiles.write(shared, out -> out.write(js));
                lastChecked = Checked.of(shared, js);
            } catch (FsilException | IOException e) {
                // a read-only or full cache: the report still gets its copy from the resource
            }
        }
        return js;
    }

    /** The plotly.js fsil ships, checked against its hash. */
    static byte[] shipped() {
        byte[] js;
        try (InputStream in = PlotlyAsset.class.getResourceAsStream("/fsil/report/plotly.min.js")) {
            if (in == null) {
                throw new FsilException("plotly.min.js is missing from fsil's eval jar");
            }
            js = in.readAllBytes();
        } catch (IOException e) {
            throw new FsilException("cannot read plotly.min.js from fsil's eval jar: " + e.getMessage(), e);
        }
        if (!SHA256.equals(sha256(js))) {
            throw new FsilException("plotly.min.js in fsil's eval jar is damaged (SHA-256 " + sha256(js) + ", expected "
                    + SHA256 + "): rebuild fsil");
        }
        return js;
    }

    static String sha256(byte[] b) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
