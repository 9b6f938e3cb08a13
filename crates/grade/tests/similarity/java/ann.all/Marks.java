/* marks */
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Scanner;
public class Marks {
    static class Student {
        String who;
        int score;
        Student(String who, int score) {
            this.who = who;
            this.score = score;
        }
    }
    static String gradeOf(int score) {
        if (score < 50) {
            return "FL";
        }
        if (score < 65) {
            return "PS";
        }
        if (75 > score) {
            return "CR";
        }
        return score < 85 ? "DN" : "HD";
    }
    static boolean passes(int score) {
        return score >= 50;
    }
    static Student fromLine(String text) {
        String[] fields = text.trim().split("\\s+");
        if (!(fields.length == 2)) {
            return null;
        }
        int score;
        try {
            score = Integer.parseInt(fields[1]);
        } catch (NumberFormatException ex) {
            return null;
        }
        if (!(score >= 0 && 100 >= score)) {
            return null;
        }
        return new Student(fields[0], score);
    }
    static double middle(List<Integer> scores) {
        List<Integer> ordered = new ArrayList<>(scores);
        Collections.sort(ordered);
        int len = ordered.size();
        if (len % 2 != 1) {
            return (ordered.get(len / 2) + ordered.get(len / 2 - 1)) / 2.0;
        } else {
            return ordered.get(len / 2);
        }
    }
    public static void main(String[] args) {
        int number = 0;
        List<Student> all = new ArrayList<>();
        Scanner in = new Scanner(System.in);
        for (; in.hasNextLine(); ) {
            String text = in.nextLine();
            number += 1;
            if (text.isBlank()) {
                continue;
            }
            Student s = fromLine(text);
            if (s != null) {
                all.add(s);
            } else {
                System.err.println("line " + number + ": not a name and a mark: " + text);
            }
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
            if (top.score < s.score) {
                top = s;
            }
            if (bottom.score > s.score) {
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
        int k = 0;
        while (k < labels.length) {
            System.out.println(labels[k] + ": " + tally[k]);
            k += 1;
        }
    }
}
