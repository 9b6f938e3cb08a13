import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Scanner;

/**
 * Marks report: reads "name mark" lines and summarises them.
 * Ann Smith, lab 4.
 */
public class Marks {

    /** One student's result. */
    static class Student {
        String who;
        int score;

        Student(String who, int score) {
            this.who = who;
            this.score = score;
        }
    }

    /** The band a mark falls in. */
    static String gradeOf(int score) {
        if (score >= 85) {
            return "HD";
        } else if (score >= 75) {
            return "DN";
        } else if (score >= 65) {
            return "CR";
        } else if (score >= 50) {
            return "PS";
        } else {
            return "FL";
        }
    }

    /** Parses a line, or returns null when it is not "name mark". */
    static Student fromLine(String text) {
        String[] fields = text.trim().split("\\s+");
        if (fields.length != 2) {
            return null;
        }
        int score;
        try {
            score = Integer.parseInt(fields[1]);
        } catch (NumberFormatException ex) {
            return null;
        }
        if (score < 0 || score > 100) {
            return null;
        }
        return new Student(fields[0], score);
    }

    static double middle(List<Integer> scores) {
        List<Integer> ordered = new ArrayList<>(scores);
        Collections.sort(ordered);
        int len = ordered.size();
        if (len % 2 == 1) {
            return ordered.get(len / 2);
        }
        return (ordered.get(len / 2 - 1) + ordered.get(len / 2)) / 2.0;
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        List<Student> all = new ArrayList<>();
        int number = 0;
        while (in.hasNextLine()) {
            String text = in.nextLine();
            number++;
            if (text.isBlank()) {
                continue;
            }
            Student s = fromLine(text);
            if (s == null) {
                System.err.println("line " + number + ": not a name and a mark: " + text);
                continue;
            }
            all.add(s);
        }
        if (all.isEmpty()) {
            System.out.println("no marks");
            return;
        }
        int sum = 0;
        Student top = all.get(0);
        Student bottom = all.get(0);
        List<Integer> scores = new ArrayList<>();
        String[] labels = {"HD", "DN", "CR", "PS", "FL"};
        int[] tally = new int[labels.length];
        for (Student s : all) {
            sum += s.score;
            scores.add(s.score);
            if (s.score > top.score) {
                top = s;
            }
            if (s.score < bottom.score) {
                bottom = s;
            }
            String g = gradeOf(s.score);
            for (int k = 0; k < labels.length; k++) {
                if (labels[k].equals(g)) {
                    tally[k]++;
                }
            }
        }
        System.out.println("students: " + all.size());
        System.out.printf("average: %.2f%n", (double) sum / all.size());
        System.out.printf("median: %.1f%n", middle(scores));
        System.out.println("highest: " + top.who + " " + top.score);
        System.out.println("lowest: " + bottom.who + " " + bottom.score);
        for (int k = 0; k < labels.length; k++) {
            System.out.println(labels[k] + ": " + tally[k]);
        }
    }
}
