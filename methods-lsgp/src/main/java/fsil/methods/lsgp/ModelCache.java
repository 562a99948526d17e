package fsil.methods.lsgp;

import fsil.core.nn.Dense;
import fsil.core.nn.FeatureMap;
import fsil.core.nn.Mlp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The on-disk cache of meta-trained models: {@code <cacheDir>/lsgp/model-<sha256(key)>.bin}, where the key
 * names the base data ({@code Background.dataKey()}), the seed, the input dimension and every training parameter.
 * The file repeats the full key, so a hash collision or a stale format is detected and the model retrained. Files
 * are written to a temporary sibling and moved into place atomically, so a concurrent reader or a crash never sees
 * half a file.
 */
final class ModelCache {
    private static final String MAGIC = "fsil-lsgp-model-v1";

    /**
     * What is stored besides the weights; {@code selection} is null for the last iterate (then the file has exactly
     * the layout it had before checkpoint selection existed, so those files stay valid).
     */
    record Entry(LsgpKernel kernel, double initialLoss, double finalLoss, int skipped,
                 MetaTrainer.Selection selection) {
    }

    private ModelCache() {
    }

    static Path file(Path cacheDir, String key) {
        return cacheDir.resolve("lsgp").resolve("model-" + sha256(key).substring(0, 32) + ".bin");
    }

    static String sha256(String s) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (byte b : h) {
                sb.append(String.format("%02x", b & 0xff));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The cached entry, or empty when the file is absent, unreadable, of another key or of other layer sizes. */
    static Optional<Entry> read(Path file, String key, int[] sizes, boolean residual) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            if (!MAGIC.equals(in.readUTF()) || !key.equals(in.readUTF())) {
                return Optional.empty();
            }
            int layers = in.readInt();
            if (layers != sizes.length) {
                return Optional.empty();
            }
            for (int size : sizes) {
                if (in.readInt() != size) {
                    return Optional.empty();
                }
            }
            Mlp mlp = new Mlp(sizes, false, 0L);
            for (Dense d : mlp.layers()) {
                readInto(in, d.weights());
                readInto(in, d.bias());
            }
            double logS = in.readDouble();
            double initial = in.readDouble();
            double last = in.readDouble();
            int skipped = in.readInt();
            MetaTrainer.Selection selection = null;
            if (in.read() == 1) {
                selection = new MetaTrainer.Selection(in.readInt(), in.readDouble(), in.readDouble(), in.readInt());
            }
            FeatureMap map = residual ? FeatureMap.residual(mlp) : FeatureMap.of(mlp);
            return Optional.of(new Entry(new LsgpKernel(map, logS), initial, last, skipped, selection));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void readInto(DataInputStream in, double[] a) throws IOException {
        for (int i = 0; i < a.length; i++) {
            a[i] = in.readDouble();
        }
    }

    static void write(Path file, String key, Entry entry) {
        Mlp mlp = entry.kernel().map().mlp();
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
            try (OutputStream os = Files.newOutputStream(tmp);
                 DataOutputStream out = new DataOutputStream(new BufferedOutputStream(os, 1 << 16))) {
                out.writeUTF(MAGIC);
                out.writeUTF(key);
                int[] sizes = mlp.sizes();
                out.writeInt(sizes.length);
                for (int s : sizes) {
                    out.writeInt(s);
                }
                for (Dense d : mlp.layers()) {
                    for (double w : d.weights()) {
                        out.writeDouble(w);
                    }
                    for (double b : d.bias()) {
                        out.writeDouble(b);
                    }
                }
                out.writeDouble(entry.kernel().logOutputscale());
                out.writeDouble(entry.initialLoss());
                out.writeDouble(entry.finalLoss());
                out.writeInt(entry.skipped());
                MetaTrainer.Selection sel = entry.selection();
                if (sel != null) {
                    out.writeByte(1);
                    out.writeInt(sel.step());
                    out.writeDouble(sel.accuracy());
                    out.writeDouble(sel.lastAccuracy());
                    out.writeInt(sel.evaluations());
                }
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the lsgp model cache " + file + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the original failure is what matters
                }
            }
        }
    }
}
