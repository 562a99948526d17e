package fsil.app.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleProgressTest {
    /** Piped to a file: plain lines, no carriage returns, messages kept, the final line once. */
    @Test
    void offTheTerminalThePipedLogIsPlainLines() {
        StringWriter out = new StringWriter();
        ConsoleProgress p = new ConsoleProgress(new PrintWriter(out), false);
        p.start("fewshot", 100);
        p.message("preparing ncm on digits");
        for (int i = 0; i < 100; i++) {
            p.step(1);
        }
        p.close();
        String log = out.toString();
        assertFalse(log.contains("\r"), log);
        assertTrue(log.contains("preparing ncm on digits\n"), log);
        assertEquals(1, log.lines().filter(l -> l.startsWith("fewshot 100/100")).count(), log);
        assertTrue(log.lines().count() <= 13, "a line per tenth at most: " + log);
    }

    @Test
    void slowWorkShowsSecondsPerTask() {
        assertEquals("cil 3/10 tasks (30%) 4.0 s/task, ETA 28s", ConsoleProgress.line("cil", 3, 10, 12));
        assertEquals("cil 10/10 tasks (100%) 2.5 tasks/s, took 4s", ConsoleProgress.line("cil", 10, 10, 4));
    }
}
