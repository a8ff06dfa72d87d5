// Cards shown where they must not act (the edit-layout view, the component editor's preview): the card's body is
// inert (a press on it starts the grid's drag instead of using the card), command cards draw their controls disabled
// and send nothing, whatever a view does with its own buttons.
import { createContext, useContext } from 'react';

export const CardsReadOnly = createContext(false);

export const useCardsReadOnly = (): boolean => useContext(CardsReadOnly);
