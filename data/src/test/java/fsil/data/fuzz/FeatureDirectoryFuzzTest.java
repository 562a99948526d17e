package fsil.data.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.data.sets.FeatureDirectoryDataset;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A whole feature directory (dir:/path) from any bytes. The input is a sequence of records, each one byte naming
 * the file (index into {@link #FILES}, modulo its size), a big-endian 16-bit length and that many bytes of
 * content; a truncated last record is cut to what is there. Replays the committed corpus in {@code mvn verify};
 * fuzzes with {@code JAZZER_FUZZ=1} (data/DATA.md).
 */
class FeatureDirectoryFuzzTest {
    static final List<String> FILES = List.of("features.npy", "labels.npy", "classes.txt", "splits/base.txt",
            "splits/novel.txt", "splits/test_indices.txt", "splits/fscil.txt", "test_features.npy",
            "test_labels.npy", "splits/validation.txt");
    private static final Path DIR = ReaderOracle.workDir("dir");

    @FuzzTest(maxDuration = FuzzBudget.PER_READER)
    void directory(byte[] input) {
        ReaderOracle.clear(DIR);
        ByteBuffer b = ByteBuffer.wrap(input);
        while (b.remaining() >= 3) {
            String name = FILES.get((b.get() & 0xFF) % FILES.size());
            int len = Math.min(b.getShort() & 0xFFFF, b.remaining());
            byte[] content = Arrays.copyOfRange(input, b.position(), b.position() + len);
            b.position(b.position() + len);
            ReaderOracle.write(DIR.resolve(name), content);
        }
        ReaderOracle.check(DIR, () -> FeatureDirectoryDataset.load(DIR));
    }

    /** Encodes files into the record format above (for the seed corpus). */
    static byte[] encode(Object... nameAndContent) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < nameAndContent.length; i += 2) {
            byte[] content = (byte[]) nameAndContent[i + 1];
            out.write(FILES.indexOf((String) nameAndContent[i]));
            out.write(content.length >>> 8);
            out.write(content.length & 0xFF);
            out.writeBytes(content);
        }
        return out.toByteArray();
    }
}
