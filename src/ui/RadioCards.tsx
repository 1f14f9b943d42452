import styled from 'styled-components'

/** A fieldset of radio choices drawn as cards, each with a line of explanation (<small>) under its label. */
export const RadioCards = styled.fieldset`
  border: 0;
  margin: 0 0 16px;
  padding: 0;
  display: grid;
  gap: 8px;
  legend {
    padding: 0;
    margin-bottom: 8px;
    font-size: 0.9rem;
    color: ${(p) => p.theme.color.muted};
  }
  label {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 2px 10px;
    align-items: center;
    padding: 10px 12px;
    border-radius: 10px;
    background: ${(p) => p.theme.color.raised};
    border: 1px solid ${(p) => p.theme.color.border};
    cursor: pointer;
    font-size: 0.95rem;
  }
  label:has(input:checked) {
    border-color: ${(p) => p.theme.color.accent};
  }
  label:has(input:disabled) {
    cursor: default;
    opacity: 0.6;
  }
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${(p) => p.theme.color.accent};
  }
  small {
    grid-column: 2;
    color: ${(p) => p.theme.color.muted};
    font-size: 0.8rem;
  }
`
