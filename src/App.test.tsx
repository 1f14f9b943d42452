import { render, screen } from '@testing-library/react'
import { App } from './App'

it('renders the claim page title', () => {
  render(<App />)
  expect(screen.getByRole('heading', { name: 'Claim your allocation' })).toBeTruthy()
})
