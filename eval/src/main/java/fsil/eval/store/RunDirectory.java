package fsil.eval.store;

import fsil.api.FsilException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * A run directory, held by one process at a time: an OS file lock on {@value #LOCK} (released by the OS when the
 * process dies, however it dies) keeps a second {@code fsil run}, {@code --resume} or {@code report} out while a
 * first one works in it. A new run goes only into a directory that does not exist or is empty, so a run never
 * writes over a user's files.
 */
public final class RunDirectory implements AutoCloseable {
    public static final String LOCK = ".fsil.lock";
    public static final String SPEC = "spec.json";

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private RunDirectory(Path dir, FileChannel lockChannel, FileLock lock) {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Creates and locks the directory of a new run; refuses one that holds anything. */
    public static RunDirectory create(Path dir) {
        if (!dir.toString().isBlank() && Files.exists(dir.resolve(SPEC))) {
            throw new FsilException("run directory " + dir + " already holds a run; resume it with 'fsil run "
                    + "--resume " + dir + "' or choose another --out");
        }
        requireNewOrEmpty(dir, "a run");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new FsilException("cannot create run directory " + dir + ": " + reason(e), e);
        }
        return lock(dir);
    }

    /**
     * The rule for every directory fsil writes new results into (a run; a comparison): {@code --out} names a
     * directory that does not exist (it is created) or is empty, so nothing of the user's is overwritten. Refuses,
     * with one line, an empty path, a file, and a directory that holds anything; {@code what} names the results
     * in the messages (e.g. "a run").
     */
    public static void requireNewOrEmpty(Path dir, String what) {
        if (dir.toString().isBlank()) {
            throw new FsilException("--out must name a directory for " + what + " (it is created); got an empty "
                    + "path");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new FsilException("cannot write " + what + " into " + dir + ": it is a file");
        }
        if (Files.isDirectory(dir) && !isEmpty(dir)) {
            throw new FsilException("cannot write " + what + " into " + dir + ": it is not empty (fsil writes "
                    + what + " only into a new or empty directory, so that nothing there is overwritten); choose "
                    + "another --out");
        }
    }

    /** Locks the directory of an existing run (to resume it or rebuild its report). */
    public static RunDirectory open(Path dir) {
        requireRun(dir);
        return lock(dir);
    }

    /** Refuses, with one line, a path that is not a run directory; takes no lock (for readers). */
    public static void requireRun(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new FsilException(dir + " is not a run directory (" + (Files.exists(dir) ? "it is a file" : "it does not exist") + ")");
        }
        if (!Files.isRegularFile(dir.resolve(SPEC))) {
            throw new FsilException(dir + " is not a run directory (no " + SPEC + ")");
        }
    }

    private static RunDirectory lock(Path dir) {
        Path file = dir.resolve(LOCK);
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new FsilException("cannot lock run directory " + dir + ": " + reason(e), e);
        }
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            closeQuietly(ch);
            throw new FsilException("cannot lock run directory " + dir + ": " + reason(e), e);
        }
        if (lock == null) {
            String holder = holder(ch);
            closeQuietly(ch);
            throw new FsilException("run directory " + dir + " is in use by another fsil process" + holder
                    + "; wait for it to finish, or use another directory");
        }
        try {
            byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(pid), 0);
        } catch (IOException e) {
            // the lock holds without the pid note
        }
        return new RunDirectory(dir, ch, lock);
    }

    private static String holder(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate(32);
            ch.read(b, 0);
            String pid = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
            return pid.matches("\\d+") ? " (pid " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean isEmpty(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            throw new FsilException("cannot read directory " + dir + ": " + reason(e), e);
        }
    }

    static String reason(IOException e) {
        String m = e.getMessage();
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return m == null ? e.getClass().getSimpleName() : m;
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing to add to the error being reported
        }
    }

    public Path path() {
        return dir;
    }

    public Path resolve(String name) {
        return dir.resolve(name);
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the OS releases it with the channel
        }
        closeQuietly(lockChannel);
    }
}
