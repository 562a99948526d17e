package fsil.data.fuzz;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.regex.Pattern;

/**
 * Keeps Jazzer's instrumentation log out of the test output: once its agent is installed (by the first
 * {@code @FuzzTest}), Jazzer 0.24 writes "INFO: Instrumented CLASS (took N ms, size +N%)" for every class of the
 * instrumented packages the JVM loads, in that test and in every later one, and "INFO: Loaded N hooks from CLASS"
 * for each of its sanitizers: about a hundred lines in this module's tests. Jazzer has no option for them (its
 * {@code Log.info} is unconditional and writes to the current {@code System.err}; only debug lines have a switch,
 * {@code JAZZER_DEBUG}), so this filter drops exactly those two kinds of line from standard error; everything else,
 * Jazzer's warnings, errors and findings included, passes unchanged. Registered for every test class of this
 * module (META-INF/services, autodetection in junit-platform.properties), so it is in place before any fuzz test.
 */
public final class QuietJazzer implements BeforeAllCallback {
    static final Pattern DROPPED = Pattern.compile("INFO: (Instrumented \\S+ .*\\(took \\d+ ms, size [+-]?\\d+%\\)"
            + "|Loaded \\d+ hooks from \\S+)\\R?");
    static final String PREFIX = "INFO: ";
    private static boolean installed;

    @Override
    public void beforeAll(ExtensionContext context) {
        install();
    }

    static synchronized void install() {
        if (!installed) {
            System.setErr(new PrintStream(new Filter(System.err), true, Charset.defaultCharset()));
            installed = true;
        }
    }

    /** Passes lines on to {@code target} except Jazzer's instrumentation lines. */
    static final class Filter extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Filter(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                if (!DROPPED.matcher(line.toString(Charset.defaultCharset())).matches()) {
                    target.write(line.toByteArray(), 0, line.size());
                }
                line.reset();
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        /**
         * Passes on a line without its end yet unless it may still become a dropped one (Jazzer prints "INFO: " and
         * the message apart).
         */
        @Override
        public synchronized void flush() {
            String text = line.toString(Charset.defaultCharset());
            if (!text.isEmpty() && !text.startsWith(PREFIX) && !PREFIX.startsWith(text)) {
                target.write(line.toByteArray(), 0, line.size());
                line.reset();
            }
            target.flush();
        }
    }
}
