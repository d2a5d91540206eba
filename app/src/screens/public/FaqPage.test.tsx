// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { FaqPage } from './FaqPage';

describe('FaqPage', () => {
  afterEach(cleanup);

  it('is an accordion of exactly 15 distinct questions, each with an answer', () => {
    render(
      <MemoryRouter>
        <FaqPage />
      </MemoryRouter>,
    );
    const questions = screen.getAllByRole('button', { expanded: false });
    expect(questions).toHaveLength(15);
    expect(new Set(questions.map((q) => q.textContent)).size).toBe(15);
    for (const question of questions) {
      expect(question.textContent?.endsWith('?')).toBe(true);
      fireEvent.click(question);
      const answer = document.getElementById(question.getAttribute('aria-controls')!)!;
      expect(answer.hidden).toBe(false);
      expect(answer.textContent!.length).toBeGreaterThan(120);
    }
  });
});
